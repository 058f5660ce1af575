/**
 * `mtg-turn-engine/conformance` (Node only): the conformance kit (CONTRACT.md, "Conformance
 * kit"; docs/conformance.md). The shipped scenario files with the features each needs, the
 * scenario JSON Schema, and the runner that plays them against another engine's process over
 * the stdio protocol.
 */
export { FEATURES, FEATURE_NAMES, scenarioFeatures, missingFeatures } from './conformance/features.js';
export type { Feature } from './conformance/features.js';
export { conformanceCorpus, loadScenarios, corpusFolder, packageRoot, scenarioSchema, scenarioSchemaPath, CORPUS_SOURCES } from './conformance/corpus.js';
export type { CorpusEntry, CorpusOptions, CorpusSource } from './conformance/corpus.js';
export { DEFAULT_SCENARIO_TIMEOUT_MS, runConformance } from './conformance/runner.js';
export type { ConformanceOptions, ConformanceResult, ConformanceRun } from './conformance/runner.js';
export { DEFAULT_STARTUP_TIMEOUT_MS, DEFAULT_TIMEOUT_MS, EngineFailure, EngineProcess, RpcCallError } from './conformance/rpc.js';
export type { EngineProcessOptions } from './conformance/rpc.js';
export { serveSelf } from './conformance/serve.js';
export type { ServeIo } from './conformance/serve.js';
export { ENGINE_METHODS, PROTOCOL_VERSION, RUNNER_METHODS, RpcErrorCode } from './conformance/protocol.js';
export type { CheckpointParams, CreateGameParams, InitializeResult, RpcError, RpcId, RpcRequest, RpcResponse, SendAnswer } from './conformance/protocol.js';
export { scenarioJsonSchema } from './scenarios/schema.js';
export type { Scenario, ScenarioResult, ScenarioFailure } from './scenarios/schema.js';
