import { argumentsWithSemiSpaceFlag } from './youngGeneration.ts';

// Imported first by main.ts, so this runs before the app is built: when the young-generation
// cap is missing, the process replaces itself with the same command plus the flag. execve
// keeps the PID, so signals, supervisors and exit codes are unaffected; where it does not
// exist (Windows) the server runs without the cap.
const args = argumentsWithSemiSpaceFlag(process.execPath, process.execArgv, process.argv, process.env.NODE_OPTIONS);
if (args && typeof process.execve === 'function') process.execve(process.execPath, args, process.env);
