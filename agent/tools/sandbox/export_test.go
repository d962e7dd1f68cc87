package sandbox

// CommandWith is Command with what the kernel offers given, so that tests
// can take the paths another kernel would (Landlock's TCP rules where
// namespaces are unavailable).
var CommandWith = command
