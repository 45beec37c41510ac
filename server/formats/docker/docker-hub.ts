/**
 * What Depot tells an admin whose remote Docker repository pulls anonymously: public
 * registries (Docker Hub the best known) limit anonymous pulls, so a remote without
 * credentials is the likely cause of a `429` (docs/docker.md, "Remote repositories"). Depot
 * names no registry host: it gives the hint for any remote Docker repository without a user
 * name. Shared by the server and the console.
 */
export const DOCKER_HUB_HINT =
  'Public registries such as Docker Hub limit anonymous pulls: enter a username and password (or access token) for the upstream to avoid being blocked.';
