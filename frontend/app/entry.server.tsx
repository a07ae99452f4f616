import { prerender } from 'react-dom/static';
import { ServerRouter, type EntryContext } from 'react-router';

/**
 * Renders a page at build time (`ssr: false`: every page is prerendered, nothing streams to a visitor).
 * The page is rendered whole, every Suspense boundary filled in, so it carries no script of React's to
 * fill one in as it loads. An error while rendering fails the build.
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
): Promise<Response> {
  let status = responseStatusCode;
  const { prelude } = await prerender(<ServerRouter context={routerContext} url={request.url} />, {
    onError(error) {
      status = 500;
      console.error(error);
    },
  });
  responseHeaders.set('Content-Type', 'text/html');
  return new Response(prelude, { headers: responseHeaders, status });
}
