import fs from 'node:fs';

/**
 * Memory of a server and its image worker processes (images/imageWorkers.ts), from /proc
 * (Linux). A worker lives a few seconds, so its peak (VmHWM) is read while it runs, every 10 ms.
 */
export interface ProcessTreeMemory {
  /** The server's own peak (VmHWM) since it started, MB. */
  serverPeakMb: number;
  /** Each worker's peak (VmHWM), in the order they started, MB. */
  workerPeaksMb: number[];
  /** The most the server and its workers held at one instant (VmRSS summed per sample), MB. */
  peakTogetherMb: number;
  /**
   * serverPeakMb plus the largest worker peak: the two peaks added even when they happened at
   * different times, and the Node binary and libvips pages both processes map counted twice.
   * The figure the budget judges: it cannot be lower than what the machine held.
   */
  serverPlusLargestWorkerMb: number;
}

function statusOf(pid: number): string | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    // A process that exited but was not reaped yet (a zombie) has no memory lines.
    return status.includes('VmHWM') ? status : undefined;
  } catch {
    return undefined; // exited between listing and reading
  }
}

function kb(status: string | undefined, field: 'VmRSS' | 'VmHWM'): number {
  return Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status ?? '')?.[1] ?? 0);
}

function childrenOf(pid: number): number[] {
  try {
    return fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((task) =>
        fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
      );
  } catch {
    return [];
  }
}

/** Starts sampling `pid` and its children; the returned function stops and gives the figures. */
export function watchProcessTree(pid: number): () => ProcessTreeMemory {
  const workerPeaksKb = new Map<number, number>();
  let peakTogetherKb = 0;
  const sample = () => {
    let together = kb(statusOf(pid), 'VmRSS');
    for (const child of childrenOf(pid)) {
      const status = statusOf(child);
      if (!status) continue;
      together += kb(status, 'VmRSS');
      workerPeaksKb.set(child, Math.max(workerPeaksKb.get(child) ?? 0, kb(status, 'VmHWM')));
    }
    peakTogetherKb = Math.max(peakTogetherKb, together);
  };
  const timer = setInterval(sample, 10);
  return () => {
    clearInterval(timer);
    sample();
    const mb = (value: number) => value / 1024;
    const serverPeakMb = mb(kb(statusOf(pid), 'VmHWM'));
    const workerPeaksMb = [...workerPeaksKb.values()].map(mb);
    return {
      serverPeakMb,
      workerPeaksMb,
      peakTogetherMb: mb(peakTogetherKb),
      serverPlusLargestWorkerMb: serverPeakMb + Math.max(0, ...workerPeaksMb),
    };
  };
}
