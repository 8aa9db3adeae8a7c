/**
 * Key templates: {@code @Synchronized} values such as {@code order:{0.id}} compiled at deployment and rendered
 * per call. Imports the API and the JDK only.
 */
package dev.baton.impl.key;
