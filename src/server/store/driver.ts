/**
 * Loading the optional database packages (optional peer dependencies of mtg-turn-engine): a
 * store that needs one that is not installed says which package to install.
 */

/** `import(name)`, or an error saying `npm install <name>` when it is not installed. */
export async function loadOptional<T>(name: string, store: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND')
      throw new Error(`${store} needs the package ${name}, which is not installed: npm install ${name}`, { cause: err });
    throw err;
  }
}
