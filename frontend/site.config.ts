/**
 * Settings fixed when the site is built: the public address (canonical links, sitemap, Open Graph) and
 * the optional tag-manager container. Both come from the environment.
 */
const tagManagerId = process.env.TAG_MANAGER_ID ?? '';
if (tagManagerId && !/^GTM-[A-Z0-9]{4,12}$/.test(tagManagerId)) {
  throw new Error(`TAG_MANAGER_ID must look like GTM-XXXXXXX, not ${JSON.stringify(tagManagerId)}`);
}
const siteUrl = (process.env.SITE_URL ?? 'http://localhost:8080').replace(/\/+$/, '');
if (!/^https?:\/\/[^/]+$/.test(siteUrl)) {
  throw new Error(`SITE_URL must be an http(s) origin such as https://quire.example, not ${JSON.stringify(siteUrl)}`);
}

export const siteConfig = { siteUrl, tagManagerId };
