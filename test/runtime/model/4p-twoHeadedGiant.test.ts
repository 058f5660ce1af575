/** The model-based tests of the configuration 4p-twoHeadedGiant (modelSuite.ts). */
import { describeModel } from './modelSuite.js';

describeModel('4p-twoHeadedGiant');
