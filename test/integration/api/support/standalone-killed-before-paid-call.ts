import { closeSync, existsSync, fsyncSync, openSync, writeSync } from 'node:fs';
import * as path from 'node:path';
import { runApp } from '@lomo/platform';
import { StandaloneModule } from '../../../../apps/standalone/src/standalone.module';

// The standalone as `npm start` runs it, with one fault: the first time the generation service is
// about to apply a person's approval of a paid call's card (the approval is on the task; the quote
// is not approved, nothing reserved, nothing sent), the process SIGKILLs itself. The marker file
// `killed-before-paid-call` in the data directory (read by the drill,
// test/integration/api/approve-then-sigkill.int-spec.ts) makes it happen once per directory.
runApp('standalone', (config, logger) =>
  StandaloneModule.register(config, {
    logger,
    generationHooks: {
      beforeApplyingCardApproval: (jobId) => {
        const marker = path.join(config.LOMO_DATA_DIR, 'killed-before-paid-call');
        if (existsSync(marker)) return;
        // On disk before the kill: nothing of this process runs after it.
        const fd = openSync(marker, 'wx');
        writeSync(fd, `${JSON.stringify({ jobId, pid: process.pid, at: new Date().toISOString() })}\n`);
        fsyncSync(fd);
        closeSync(fd);
        process.kill(process.pid, 'SIGKILL');
        // The signal may take a moment to land: block this thread so no further step (the quote's
        // approval, a reservation) can slip in before it does.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30_000);
        throw new Error('still alive 30 s after SIGKILL');
      },
    },
  }),
);
