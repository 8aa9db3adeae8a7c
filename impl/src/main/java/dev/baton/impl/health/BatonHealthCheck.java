package dev.baton.impl.health;

/**
 * What Baton's health checks have in common for the extensions that register them: a type that names no Health
 * API type, so {@link HealthBuildCompatibleExtension} can select the checks by it without loading the API where
 * the application has none.
 */
abstract class BatonHealthCheck {

    BatonHealthCheck() {}
}
