import { Injectable } from '@nestjs/common';

/**
 * Tells whoever holds state authenticated by a key (open /ws and /mcp sessions, the key-validity cache) that the
 * key has just been revoked in this process, so its sessions end at once rather than on their next check.
 */
@Injectable()
export class KeyRevocations {
  private readonly listeners: Array<(keyId: string) => void> = [];

  onRevoked(listener: (keyId: string) => void): void {
    this.listeners.push(listener);
  }

  revoked(keyId: string): void {
    for (const listener of this.listeners) listener(keyId);
  }
}
