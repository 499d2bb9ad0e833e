import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrates the island when the visitor starts on it (interaction-directive.ts). */
    'client:interaction'?: boolean;
  }
}

/**
 * Adds the `client:interaction` directive (interaction-directive.ts): an island that hydrates
 * when the visitor starts on it. Measured with `npm run bench -- --only pages` (BENCHMARKS.md):
 * the contact and submit pages load the island bootstrap alone until then.
 */
export function hydrateOnInteraction(): AstroIntegration {
  return {
    name: 'guildrank-hydrate-on-interaction',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        addClientDirective({
          name: 'interaction',
          entrypoint: fileURLToPath(new URL('./interaction-directive.ts', import.meta.url)),
        });
      },
    },
  };
}
