// The command line from the sources (development): npx tsx scripts/cli.ts <command> [options]
import { main } from '../src/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
