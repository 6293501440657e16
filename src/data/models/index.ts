/**
 * Learners for the ranking experiment (UAI 2022 Appendix H.2): weighted multinomial logistic
 * regression, a small multilayer perceptron and a CART decision tree. Pure and seeded.
 */
export { argmax, type Classifier } from "./classifier.ts";
export { fitMlp, type MlpOptions } from "./mlp.ts";
export { fitDecisionTree, type TreeOptions } from "./tree.ts";
export { fitWeightedLogistic, type WeightedLogisticOptions } from "./weighted-logistic.ts";
