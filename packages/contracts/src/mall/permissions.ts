/** `mall:{entity}` → actions, for the permission catalogue (plain data: the shell loads it). */
export const mallPermissionCatalogue: Record<string, readonly string[]> = {
  'mall:goods': ['list', 'query', 'create', 'update', 'delete', 'export', 'shelf', 'stock'],
  'mall:printer': ['list', 'query', 'create', 'update', 'delete', 'test'],
  'mall:printJob': ['list', 'query', 'cancel', 'reprint'],
};
