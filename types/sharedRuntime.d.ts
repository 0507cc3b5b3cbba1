/**
 * What both runtimes (browsers, Node 20) provide beyond ES2023, declared only as far as the shared
 * code in src/resources, src/config and src/i18n uses it. tsconfig.shared.json checks that code with
 * neither the DOM's types nor Node's, so it cannot lean on either; the portal and the server check
 * the same files against their real runtime's declarations of these names.
 */
declare class URL {
  constructor(url: string, base?: string);
  readonly host: string;
  readonly hostname: string;
  readonly origin: string;
  readonly protocol: string;
}
