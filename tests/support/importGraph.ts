import { existsSync, readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import ts from "typescript";

const root = resolve(import.meta.dirname, "../..");

/** A module a file imports: a file of the project, or a package by its specifier (`react`, `@refinedev/core`). */
export type Imported = { file: string } | { packageName: string };

/** One tsconfig as `tsc -p` reads it (extends, lib, types, module resolution). */
function parsedConfig(tsconfig: string): ts.ParsedCommandLine {
  const path = resolve(root, tsconfig);
  const read = ts.readConfigFile(path, (file) => ts.sys.readFile(file));
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, "\n"));
  return ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(path));
}

/** The compiler options of one tsconfig, so imports resolve as tsc resolves them (package.json `imports`). */
export function compilerOptionsOf(tsconfig: string): ts.CompilerOptions {
  return parsedConfig(tsconfig).options;
}

/** The files one tsconfig includes, absolute. */
export function filesOf(tsconfig: string): string[] {
  return parsedConfig(tsconfig).fileNames.map((file) => resolve(root, file));
}

/**
 * What one file imports, static, dynamic (`import()`) and type-only alike, each resolved exactly as
 * tsc resolves it under these options (so `#resources/…` follows package.json `imports`).
 */
export function importsOf(file: string, options: ts.CompilerOptions): Imported[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  return importedFiles.map(({ fileName: specifier }) => {
    const resolved = ts.resolveModuleName(specifier, file, options, ts.sys).resolvedModule;
    if (!resolved) {
      // A stylesheet or an image the bundler handles: a file, but no module to follow.
      const asset = resolve(dirname(file), specifier);
      if (specifier.startsWith(".") && !/\.[cm]?tsx?$/.test(specifier) && existsSync(asset)) return { file: asset };
      if (specifier.startsWith(".") || specifier.startsWith("#"))
        throw new Error(`${projectPath(file)}: cannot resolve '${specifier}'`);
      return { packageName: packageNameOf(specifier) };
    }
    if (resolved.isExternalLibraryImport || resolved.resolvedFileName.includes("/node_modules/"))
      return { packageName: packageNameOf(specifier) };
    return { file: resolved.resolvedFileName };
  });
}

/** `@refinedev/core/foo` → `@refinedev/core`, `react-dom/client` → `react-dom`, `node:fs` stays. */
function packageNameOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

const isModule = (file: string) => /\.[cm]?tsx?$/.test(file) && !file.endsWith(".d.ts");

/** A path from the repository root, as failures and reports name it. */
export function projectPath(file: string): string {
  return relative(root, file);
}

/**
 * Walks the import graph from `entry` breadth-first and returns, for every module reached, the
 * shortest chain of files that leads to it from the entry (the entry first).
 */
export function reachableFrom(entry: string, options: ts.CompilerOptions): Map<string, string[]> {
  const start = resolve(root, entry);
  const chains = new Map<string, string[]>([[start, [start]]]);
  const queue = [start];
  while (queue.length) {
    const file = queue.shift()!;
    const chain = chains.get(file)!;
    for (const imported of importsOf(file, options)) {
      const key = "file" in imported ? imported.file : `package:${imported.packageName}`;
      if (chains.has(key)) continue;
      chains.set(key, [...chain, key]);
      if ("file" in imported && isModule(imported.file)) queue.push(imported.file);
    }
  }
  return chains;
}

/** Every project file's imports of other project files (packages left out), for circle counts. */
export function fileGraph(files: readonly string[], options: ts.CompilerOptions): Map<string, string[]> {
  return new Map(
    files.map((file) => [
      file,
      importsOf(file, options).flatMap((imported) => ("file" in imported ? [imported.file] : [])),
    ]),
  );
}

/** The graph's import circles: its strongly connected components of more than one file (Tarjan). */
export function importCircles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const to of graph.get(file) ?? []) {
      if (!graph.has(to)) continue;
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1) circles.push(component);
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}
