/**
 * Who may change artifacts through the console: admins, until permission targets (issue 5)
 * say who may deploy and delete where. The one place to change when they land: the action
 * routes declare it, and the tree offers writing actions to whoever holds it.
 */
export const ARTIFACT_WRITE = { permission: 'admin' as const };
