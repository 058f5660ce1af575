/** The model-based tests of the configuration 10p-grandMelee (modelSuite.ts). */
import { describeModel } from './modelSuite.js';

describeModel('10p-grandMelee');
