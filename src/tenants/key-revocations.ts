import { Injectable, Logger } from '@nestjs/common';
import { ReplicaCoordination } from '../replicas';

/**
 * Tells whoever holds state authenticated by a key (open /ws and /mcp sessions, the key-validity cache) that the
 * key has just been revoked, so its sessions end at once rather than on their next check: in this process
 * directly, and in every other replica of the deployment through the database (ReplicaCoordination: on PostgreSQL,
 * NOTIFY). A replica that misses the message (its connection was down) still refuses the key within the validity
 * check's few seconds (auth/authenticator.ts).
 */
@Injectable()
export class KeyRevocations {
  private readonly logger = new Logger(KeyRevocations.name);
  private readonly listeners: Array<(keyId: string) => void> = [];

  constructor(private readonly replicas: ReplicaCoordination) {
    replicas.onMessage((message) => {
      if (message.kind === 'key_revoked' && typeof message.keyId === 'string') this.tellListeners(message.keyId);
    });
  }

  onRevoked(listener: (keyId: string) => void): void {
    this.listeners.push(listener);
  }

  /** A key revoked in this process (its revocation committed). */
  revoked(keyId: string): void {
    this.tellListeners(keyId);
    this.replicas.tell({ kind: 'key_revoked', keyId }).catch((error: unknown) =>
      this.logger.warn(`telling the other replicas that key ${keyId} was revoked failed (${(error as Error).message}); they refuse it within seconds anyway`),
    );
  }

  private tellListeners(keyId: string): void {
    for (const listener of this.listeners) listener(keyId);
  }
}
