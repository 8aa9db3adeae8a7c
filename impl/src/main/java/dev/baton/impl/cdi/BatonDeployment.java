package dev.baton.impl.cdi;

import jakarta.enterprise.inject.spi.BeanManager;

/**
 * What deployment left for the runtime ({@link LockRuntime}): the validated configuration, the plans and
 * the store plan, and the application's beans. Provided by whichever of Baton's two CDI extensions ran:
 * the portable {@link BatonExtension} itself (a full CDI container) or the bean the build-compatible
 * {@link BatonBuildCompatibleExtension} registers (CDI Lite: Quarkus).
 */
interface BatonDeployment {

    /**
     * @return the plans, validated
     */
    DeploymentPlans plans();

    /**
     * @param beanManager the container's bean manager
     * @return the application's beans, for stores and integrations
     */
    CdiBeanLookup beans(BeanManager beanManager);
}
