/** The model-based tests of the configuration 2p-m10 (modelSuite.ts). */
import { describeModel } from './modelSuite.js';

describeModel('2p-m10');
