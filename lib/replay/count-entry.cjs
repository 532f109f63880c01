// The count process's entry (count.js runs it under Valgrind): count-process.js, loaded with require()
// where Node can require ES modules (20.19, 22.12 and later), so that start-up reads the harness's
// modules one after another, in one order in every process. With import(), the reads completed in an
// order that varied from process to process, and so did the heap they left
// (docs/history/2026-11-27-cycles.md#modules-read-in-one-order).
if (process.features.require_module) require('./count-process.js');
else import('./count-process.js');
