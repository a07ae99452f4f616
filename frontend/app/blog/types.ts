/** A blog post as pages show it; the Markdown sources are read at build time by posts.server.ts. */
export interface PostSummary {
  slug: string;
  title: string;
  meta: string;
  summary: string;
  category: 'Convert' | 'Extract' | 'Edit';
  relatedToolId: string;
  /** yyyy-mm-dd */
  date: string;
  thumbnail: string;
}

export interface Post extends PostSummary {
  html: string;
}
