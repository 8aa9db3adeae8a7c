package dev.baton.impl.testing;

import dev.baton.impl.cdi.BatonBuildCompatibleExtension;

/**
 * The build-compatible extension without its {@code @SkipIfPortableExtensionPresent}, which Weld honours
 * whether or not the portable extension is there: how a CDI Lite container runs it. (Weld finds extension
 * methods among the declared ones, hence the overrides.)
 */
public class UnskippedBatonExtension extends BatonBuildCompatibleExtension {
    @Override
    @jakarta.enterprise.inject.build.compatible.spi.Discovery
    public void addBeans(jakarta.enterprise.inject.build.compatible.spi.ScannedClasses scanned) {
        super.addBeans(scanned);
    }

    @Override
    @jakarta.enterprise.inject.build.compatible.spi.Enhancement(
            types = {dev.baton.impl.cdi.SynchronizedInterceptor.class, dev.baton.impl.cdi.ExclusiveInterceptor.class})
    public void prioritize(jakarta.enterprise.inject.build.compatible.spi.ClassConfig type) {
        super.prioritize(type);
    }

    @Override
    @jakarta.enterprise.inject.build.compatible.spi.Registration(types = Object.class)
    public void collect(jakarta.enterprise.inject.build.compatible.spi.BeanInfo bean) {
        super.collect(bean);
    }

    @Override
    @jakarta.enterprise.inject.build.compatible.spi.Synthesis
    public void registerDeployment(jakarta.enterprise.inject.build.compatible.spi.SyntheticComponents components) {
        super.registerDeployment(components);
    }

    @Override
    @jakarta.enterprise.inject.build.compatible.spi.Validation
    public void validate(jakarta.enterprise.inject.build.compatible.spi.Messages messages) {
        super.validate(messages);
    }
}
