/**
 * Keys with more than one holder, and a wait that holds no thread, on a server: a JAX-RS method with {@code permits
 * = 3} never has more than three callers inside; readers of one key run together and a writer alone; a writer that
 * waits keeps the readers that come after it out; a JAX-RS method returning a {@code CompletionStage} waits for a
 * busy key without its request thread, answers once the key is free, and 409 Conflict at its timeout. One
 * deployment serves them all: a deployment costs a server start on some adapters.
 */
package dev.baton.tck.runtime.shared;
