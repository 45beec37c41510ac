/**
 * What generated settings carry where the user's credentials go. The console replaces them
 * when the user unlocks their credentials (docs/set-me-up.md); the server never puts a
 * secret into a snippet.
 */
export const SNIPPET_USERNAME = '${DEPOT_USERNAME}';
export const SNIPPET_SECRET = '*** Insert your API key or access token here ***';
