/** The model-based tests of the configuration 2p-current (modelSuite.ts). */
import { describeModel } from './modelSuite.js';

describeModel('2p-current');
