/** Runs at most `size` tasks at once; the others wait their turn, first come first served. */
export interface ProcessingSlots {
  run<T>(task: () => Promise<T>): Promise<T>;
}

export function createProcessingSlots(size: number): ProcessingSlots {
  let running = 0;
  const waiting: (() => void)[] = [];
  return {
    async run(task) {
      if (running >= size) await new Promise<void>((resolve) => waiting.push(resolve));
      else running += 1;
      try {
        return await task();
      } finally {
        // The slot passes straight to the next waiter, so `running` counts it throughout.
        const next = waiting.shift();
        if (next) next();
        else running -= 1;
      }
    },
  };
}
