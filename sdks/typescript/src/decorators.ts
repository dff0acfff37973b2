type AnyFunction = (this: unknown, ...args: any[]) => any;

/**
 * Builds a method decorator that works both as a standard (TC39, TypeScript 5) decorator and as a legacy
 * `experimentalDecorators` one. `wrap` receives the method and its name and returns the replacement.
 */
export function methodDecorator(wrap: (method: AnyFunction, name: string) => AnyFunction) {
  return function decorate(...args: unknown[]): any {
    const [value, context] = args;
    if (typeof value === "function" && context !== null && typeof context === "object" && "kind" in context) {
      return wrap(value as AnyFunction, String((context as unknown as { name: unknown }).name));
    }
    const [, key, descriptor] = args as [unknown, PropertyKey, PropertyDescriptor | undefined];
    if (descriptor && typeof descriptor.value === "function") {
      descriptor.value = wrap(descriptor.value as AnyFunction, String(key));
    }
    return descriptor;
  };
}
