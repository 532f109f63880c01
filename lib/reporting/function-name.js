// A profiled function's name as a report prints it: a C++ name without its return type and
// parameters (`v8::internal::JSObject::MigrateToMap`), others as they are.
export const shortFunctionName = (name) => /^(?:\S+ )?([^\s(]+)\(.*\)(?: const)?$/.exec(name)?.[1] ?? name;
