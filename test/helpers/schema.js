// What the published JSON Schemas' tests share: the fields a schema leaves without a description.

/**
 * The paths of the fields in `schema` (draft 2020-12) whose property has no description of its own or
 * through its `$ref` into `$defs`: every nested object, array item, alternative and definition walked.
 */
export function undescribedFields(schema) {
  const undescribed = [];
  const described = (node) => node.description || (node.$ref && schema.$defs?.[node.$ref.split('/').pop()]?.description);
  const walk = (node, path) => {
    if (!node || typeof node !== 'object') return;
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      if (!described(child)) undescribed.push(`${path}.${key}`);
      walk(child, `${path}.${key}`);
    }
    for (const key of ['items', 'additionalProperties', 'then']) walk(node[key], `${path}[${key}]`);
    for (const child of [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.prefixItems ?? [])]) walk(child, path);
    for (const [key, def] of Object.entries(node.$defs ?? {})) walk(def, `#${key}`);
  };
  walk(schema, '');
  return undescribed;
}
