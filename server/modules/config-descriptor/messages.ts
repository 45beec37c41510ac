/** What configuration as code answers (docs/config-as-code.md). */
export const CONFIG_MESSAGES = {
  notADocument: 'The configuration must be a map of sections',
  unknownSection: (known: string[]) => `Unknown section; expected one of ${known.join(', ')}`,
  notAMap: 'Expected a map of fields',
  duplicateKey: 'This key appears twice (keys differing only in case are the same key)',
  notXml: (reason: string) => `The configuration is not well-formed XML: ${reason}`,
  notYaml: (reason: string) => `The configuration patch is not valid YAML: ${reason}`,
  xmlRoot: "The configuration's root element must be <config>",
  saved: 'Configuration saved successfully',
  unchanged: 'Nothing to change: the configuration already reads as given',
} as const;
