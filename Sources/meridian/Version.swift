/// The version `meridian --version` prints: the one place it is written. Raise it with each
/// release; the git tag of a release names the same version (`v0.2.0`).
let meridianVersion = "0.2.0"
