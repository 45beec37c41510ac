import type { Services } from '../../services.ts';
import { canonicalJson } from '../entities/documents.ts';
import { applyConfiguration, type ConfigurationChange } from './apply-configuration.ts';
import { portable, readConfiguration, type ConfigurationDocument } from './read-configuration.ts';
import { configurationFromXml, configurationToXml, elementToXml } from './xml-format.ts';
import { configurationToYaml, mergePatch, parseYamlPatch } from './yaml-patch.ts';

export interface ChangeOptions {
  actor: string;
  dryRun?: boolean;
}

/**
 * Configuration as code (docs/config-as-code.md): every setting as one document, read as
 * XML or YAML, applied whole or patched, all or nothing.
 */
export function createConfigurationService(services: Services, backupDirs: string[]) {
  const registry = services.schemas;
  const read = () =>
    readConfiguration({
      db: services.db,
      registry,
      catalogue: services.catalogue,
      maintenance: () => services.maintenanceSettings.get(),
    });
  const apply = (document: ConfigurationDocument, options: ChangeOptions) =>
    applyConfiguration({ services, backupDirs }, document, {
      actor: options.actor,
      dryRun: options.dryRun ?? false,
    });

  return {
    read,
    apply,
    asXml: async () => configurationToXml(await read(), registry),
    asYaml: async () => configurationToYaml(await read()),

    /** A whole document in XML (the console's Config Descriptor): every section it names. */
    applyXml: (xml: string, options: ChangeOptions) =>
      apply(configurationFromXml(xml, registry), options),

    /**
     * A YAML patch merged into the configuration; only the sections and items it touches
     * are applied, so a patch of one proxy checks that proxy, not every setting.
     */
    async applyYamlPatch(text: string, options: ChangeOptions): Promise<ConfigurationChange[]> {
      const patch = parseYamlPatch(text);
      const current = await read();
      const merged = mergePatch(current, patch) as ConfigurationDocument;
      const touched = Object.fromEntries(
        Object.keys(patch).map((name) => [name, merged[name] ?? {}]),
      );
      return apply(onlyChanged(touched, current), options);
    },

    /** The security settings as XML, read-only; they hold no secret, and none is shown. */
    async securityXml(): Promise<string> {
      const entity = registry.entities.get('security-settings')!;
      const document = (await read()).security as Record<string, unknown>;
      return elementToXml('security', portable(entity, document));
    },
  };
}

/**
 * The patched document without the items that read as they did: left out of a section, an
 * item would be deleted, so an unchanged one is kept as the current one (which `apply`
 * then finds equal and skips).
 */
function onlyChanged(touched: ConfigurationDocument, current: ConfigurationDocument) {
  return Object.fromEntries(
    Object.entries(touched).filter(
      ([name, value]) => canonicalJson(value) !== canonicalJson(current[name]),
    ),
  );
}

export type ConfigurationService = ReturnType<typeof createConfigurationService>;
