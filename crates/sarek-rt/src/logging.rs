//! `SAREK_LOG=info` (or `debug`, `warn`, ...): Sarek's log lines on standard error, through
//! the `log` ecosystem. Installs `env_logger` only when the variable is set and no logger is
//! installed yet, so an application's own logger always wins. Process-wide, and so not a field
//! of [`crate::Config`]: a logger serves the whole process, and the first device made (or
//! [`crate::Config::from_env`]) installs it.

use std::sync::Once;

pub(crate) fn init() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        if std::env::var_os("SAREK_LOG").is_some() {
            let _ = env_logger::Builder::from_env(env_logger::Env::new().filter("SAREK_LOG"))
                .try_init();
        }
    });
}
