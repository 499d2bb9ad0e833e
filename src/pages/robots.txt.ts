import type { APIRoute } from 'astro';

/** robots.txt with the sitemap's absolute URL (SITE_URL). */
export const GET: APIRoute = ({ site }) => {
  const sitemap = new URL('/sitemap-index.xml', site ?? 'http://localhost:4321');
  const body = [
    'User-agent: *',
    'Allow: /',
    'Disallow: /api/',
    'Disallow: /go/',
    'Disallow: /admin',
    '',
    `Sitemap: ${sitemap}`,
    '',
  ];
  return new Response(body.join('\n'), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
