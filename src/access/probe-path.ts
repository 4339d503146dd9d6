/**
 * The health probe's path. Load balancers and orchestrators check it every few seconds from one address (HAProxy in
 * front of the replicas: deploy/haproxy.cfg), so it is never counted against a rate (http/authentication-hook.ts):
 * a refused check would take a healthy replica out. Its operation documents no 429 (openapi/openapi-document.ts).
 */
export const PROBE_PATH = '/health';
