import { BadRequest, NotFound } from '../../errors.ts';
import { LICENSE_BUCKET_MESSAGES as M } from './messages.ts';

export type DeploymentStatus = 'ONLINE' | 'PARTIAL' | 'OFFLINE' | 'UNKNOWN';

/** A deployment licenses can be attached to. */
export interface Deployment {
  id: string;
  name: string;
  status: DeploymentStatus;
}

/** The id of the deployment this Depot is: the one that answers the call. */
export const HOME_DEPLOYMENT_ID = 'home';

/**
 * The deployments licenses may go to. Until platform deployments exist there is one, this
 * Depot, and it is ONLINE: it is the process answering.
 */
export const knownDeployments = (serverName: string): Deployment[] => [
  { id: HOME_DEPLOYMENT_ID, name: serverName, status: 'ONLINE' },
];

/** Spec 01 §4: licenses attach only to deployments ONLINE or PARTIAL. */
export function attachableDeployment(deployments: Deployment[], id: string): Deployment {
  const deployment = deployments.find((candidate) => candidate.id === id);
  if (!deployment) throw new NotFound(M.deploymentNotFound(id));
  if (deployment.status !== 'ONLINE' && deployment.status !== 'PARTIAL')
    throw new BadRequest(M.deploymentDown(deployment.name, deployment.status), 'deployment');
  return deployment;
}
