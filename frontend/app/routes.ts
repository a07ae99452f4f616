import { index, route, type RouteConfig } from '@react-router/dev/routes';

export default [
  index('routes/home.tsx'),
  route('tools/:toolId', 'routes/tool.tsx'),
  route('blog', 'routes/blog.tsx'),
  route('blog/:slug', 'routes/post.tsx'),
  route('faq', 'routes/faq.tsx'),
  route('contact', 'routes/contact.tsx'),
  route('privacy-policy', 'routes/privacy.tsx'),
  route('terms', 'routes/terms.tsx'),
  route('workflow-builder', 'routes/workflow-builder.tsx'),
  route('workflow/saved/:id', 'routes/workflow-saved.tsx'),
  route('workflow/:slug', 'routes/workflow.tsx'),
  route('login', 'routes/login.tsx'),
  route('signup', 'routes/signup.tsx'),
  route('account', 'routes/account.tsx'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
