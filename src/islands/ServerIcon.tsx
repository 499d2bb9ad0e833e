import { type IconSize, initials } from '~/lib/format';
import { isSafeImageSrc } from '~/lib/url-safety';

interface Props {
  name: string;
  src: string | null;
  /** Pixels; one of the sizes global.css defines (.icon-48, .icon-56, .icon-112). */
  size: IconSize;
  /** Above-the-fold icons load eagerly; the rest lazily. */
  eager?: boolean;
}

/**
 * A server icon with generated initials behind it: shown when there is no image, while the
 * image loads (it gets its white tile only once loaded) and when it fails (site-client marks
 * loaded and failed images too, so this works on static pages). A src that
 * is not a public https URL or a site path (stored before the host rule, or a saved entry from
 * localStorage) is never fetched.
 */
export function ServerIcon({ name, src, size, eager = false }: Props) {
  return (
    <span className={`icon icon-${size}`}>
      <span className="icon-initials" aria-hidden="true">
        {initials(name)}
      </span>
      {isSafeImageSrc(src) ? (
        <img
          className="icon-img"
          src={src}
          alt=""
          width={size}
          height={size}
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
          onLoad={(e) => {
            e.currentTarget.dataset.loaded = '';
          }}
          onError={(e) => {
            e.currentTarget.dataset.failed = '';
          }}
        />
      ) : null}
    </span>
  );
}
