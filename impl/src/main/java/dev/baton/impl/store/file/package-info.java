/**
 * The file store ({@code baton.store=file}): locks shared by the processes of one machine through lock
 * files and OS file locks, so a process that dies frees its keys at once. {@link
 * dev.baton.impl.store.file.FileLockStore} explains the design. Depends only on the API, the store SPI and
 * the JDK, like any third-party store.
 */
package dev.baton.impl.store.file;
