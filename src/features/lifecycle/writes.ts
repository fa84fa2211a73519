// The stages other rooms' changes make features enter: creating, archiving, reviving and importing
// them, and SDKs seeing them. The SQL is in ./store.ts.
export { enterStage, enterStagesSeen, restartLifecycles, settleImportedLifecycles } from './store.js';
