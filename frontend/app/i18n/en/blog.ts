import { addEnglish } from '../dictionary.ts';

/** The blog’s English copy (the list of guides and each guide). It loads with the pages that show it, so that other pages never carry it. */
export const blog = addEnglish('blog', {
  title: 'Blog',
  description: 'Step-by-step guides for every Quire tool.',
  searchLabel: 'Search the guides',
  searchPlaceholder: 'Search guides…',
  filterLabel: 'Category',
  none: 'No guides match your search.',
  pager: 'Pages',
  page: 'Page {{page}}',
  readMore: 'Read the guide',
  notFound: '404 – Blog not found',
  back: 'Back to the blog',
  tryTool: 'Try {{label}} now',
  share: 'Share this guide',
  shareOn: 'Share on {{network}}',
  published: 'Published {{date}}',
});
