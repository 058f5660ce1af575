/** The model-based tests of the configuration 3p-planechase (modelSuite.ts). */
import { describeModel } from './modelSuite.js';

describeModel('3p-planechase');
