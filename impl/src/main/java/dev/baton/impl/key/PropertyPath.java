package dev.baton.impl.key;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;

/**
 * A chain of property reads ({@code customer.id}) compiled against declared types into one method
 * handle. A segment is, in this order: a record component, a getter {@code getX()} or {@code isX()}, a
 * public no-argument method {@code x()}, or a public field {@code x}. A {@code null} along the path
 * yields {@code null}.
 */
final class PropertyPath {

    private static final MethodHandle IDENTITY = MethodHandles.identity(Object.class);

    private final MethodHandle[] steps;

    private PropertyPath(MethodHandle[] steps) {
        this.steps = steps;
    }

    static PropertyPath compile(Class<?> type, String[] segments, int from, String source) {
        MethodHandle[] steps = new MethodHandle[segments.length - from];
        Class<?> current = type;
        for (int i = from; i < segments.length; i++) {
            Accessor accessor = accessor(current, segments[i], source);
            steps[i - from] = accessor.handle;
            current = accessor.type;
        }
        return new PropertyPath(steps.length == 0 ? new MethodHandle[] {IDENTITY} : steps);
    }

    Object apply(Object value) {
        Object current = value;
        try {
            for (MethodHandle step : steps) {
                if (current == null) {
                    return null;
                }
                current = step.invokeExact(current);
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("reading a lock key property failed", e);
        }
        return current;
    }

    private record Accessor(MethodHandle handle, Class<?> type) {}

    private static Accessor accessor(Class<?> type, String name, String source) {
        if (type.isPrimitive() || type == String.class || Number.class.isAssignableFrom(type)) {
            throw new TemplateException(
                    "placeholder {" + source + "}: " + type.getSimpleName() + " has no property '" + name + "'");
        }
        try {
            if (type.isRecord()) {
                for (RecordComponent component : type.getRecordComponents()) {
                    if (component.getName().equals(name)) {
                        return method(component.getAccessor());
                    }
                }
            }
            String capitalized = Character.toUpperCase(name.charAt(0)) + name.substring(1);
            for (String candidate : new String[] {"get" + capitalized, "is" + capitalized, name}) {
                Method m = findPublicMethod(type, candidate);
                if (m != null
                        && m.getReturnType() != void.class
                        && (!candidate.startsWith("is")
                                || m.getReturnType() == boolean.class
                                || candidate.equals(name))) {
                    return method(m);
                }
            }
            for (Field field : type.getFields()) {
                if (field.getName().equals(name) && !Modifier.isStatic(field.getModifiers())) {
                    MethodHandle getter = MethodHandles.publicLookup().unreflectGetter(field);
                    return new Accessor(
                            getter.asType(MethodType.methodType(Object.class, Object.class)), field.getType());
                }
            }
        } catch (IllegalAccessException e) {
            throw new TemplateException("placeholder {" + source + "}: property '" + name + "' of " + type.getName()
                    + " is not accessible: " + e.getMessage());
        }
        throw new TemplateException("placeholder {" + source + "}: " + type.getName()
                + " has no record component, getter "
                + "(get/is" + Character.toUpperCase(name.charAt(0)) + name.substring(1) + "()), accessor " + name
                + "() or public field named '" + name + "'");
    }

    private static Method findPublicMethod(Class<?> type, String name) {
        for (Method m : type.getMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == 0 && !Modifier.isStatic(m.getModifiers())) {
                return m;
            }
        }
        return null;
    }

    private static Accessor method(Method m) throws IllegalAccessException {
        // Records and beans of the application may be non-public classes: open the accessor once, here.
        m.setAccessible(true);
        MethodHandle handle = MethodHandles.lookup().unreflect(m);
        return new Accessor(handle.asType(MethodType.methodType(Object.class, Object.class)), m.getReturnType());
    }
}
