import * as fs from 'node:fs';
import { RosClient } from './rosClient';
import type { RunningProcess } from './rosProcess';
import { photoDirWith } from './photos';

/** What a ROS test suite shares: a folder of photos, an rclpy client, the processes it started. */
export interface RosTestBed {
  readonly client: RosClient;
  readonly photoDir: string;
  /** Keeps `p` to be stopped after the suite; returns it. */
  own<P extends RunningProcess>(p: P): P;
  /**
   * Stops every process owned so far, now: for suites whose tests each start their own nodes and
   * cameras (an afterEach), so a finished test's nodes do not keep computing beside the next.
   */
  stopOwned(): Promise<void>;
}

/**
 * Registers the suite's before/after hooks: copies `photos` into a temporary folder and starts
 * the client before the tests; stops every owned process, the client, and removes the folder
 * after them. Call inside `describe`; read the fields inside tests or later hooks.
 */
export function useRosTestBed(...photos: string[]): RosTestBed {
  const procs: RunningProcess[] = [];
  let client: RosClient | undefined;
  let photoDir: string | undefined;
  before(async () => {
    photoDir = photoDirWith(...photos);
    client = await RosClient.start();
  });
  after(async () => {
    await Promise.all(procs.splice(0).map((p) => p.stop()));
    await client?.close();
    if (photoDir) fs.rmSync(photoDir, { recursive: true, force: true });
  });
  return {
    get client() {
      if (!client) throw new Error('RosTestBed: client used before the suite started');
      return client;
    },
    get photoDir() {
      if (!photoDir) throw new Error('RosTestBed: photoDir used before the suite started');
      return photoDir;
    },
    own(p) {
      procs.push(p);
      return p;
    },
    async stopOwned() {
      await Promise.all(procs.splice(0).map((p) => p.stop()));
    },
  };
}
