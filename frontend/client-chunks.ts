import type { Plugin } from 'vite';

/**
 * The browser's chunks. What every page runs is one file: React, React Router, the layout (root route)
 * with all it imports, and the site's small libraries; each route adds a file of its own, and what loads
 * on demand (sign-in, other languages) stays apart. Left to itself the bundler cuts a chunk for every set
 * of routes that share a module: a page then loaded some twenty scripts.
 */
export function clientChunks(): Plugin {
  const imports = new Map<string, readonly string[]>();
  const onDemand = new Set<string>();
  let everyPage: Set<string> | undefined;

  /** Modules reachable by static imports. */
  function reachable(from: string[]): Set<string> {
    const seen = new Set<string>();
    for (const todo = [...from]; todo.length;) {
      const id = todo.pop()!;
      if (seen.has(id)) continue;
      seen.add(id);
      todo.push(...(imports.get(id) ?? []));
    }
    return seen;
  }

  function onEveryPage(id: string): boolean {
    if (!everyPage) {
      const ids = [...imports.keys()];
      const root = ids.filter((i) => /[\\/]app[\\/]root\.tsx$/.test(i));
      // The entry itself stays apart: it hydrates the page once the route modules are in place.
      const entryImports = ids.filter((i) => /[\\/]entry\.client\.tsx$/.test(i)).flatMap((i) => imports.get(i) ?? []);
      const libraries = ids.filter((i) => /[\\/]app[\\/]lib[\\/]/.test(i) && !onDemand.has(i));
      everyPage = reachable([...root, ...entryImports, ...libraries]);
    }
    return everyPage.has(id);
  }

  return {
    name: 'quire-client-chunks',
    applyToEnvironment: (environment) => environment.name === 'client',
    configEnvironment: (name) =>
      name === 'client'
        ? {
            build: {
              rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'root', test: onEveryPage }] } } },
            },
          }
        : undefined,
    buildEnd() {
      for (const id of this.getModuleIds()) {
        const info = this.getModuleInfo(id);
        imports.set(id, info?.importedIds ?? []);
        for (const dynamic of info?.dynamicallyImportedIds ?? []) onDemand.add(dynamic);
      }
    },
  };
}
