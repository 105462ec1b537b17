//! What every handler shares.

use std::sync::Arc;

use tokio::sync::Semaphore;

use crate::ServeConfig;

/// What every handler shares: the configuration and the agent workers' permits.
#[derive(Debug, Clone)]
pub(crate) struct AppState {
    pub(crate) config: ServeConfig,
    pub(crate) workers: Arc<Semaphore>,
}

impl AppState {
    pub(crate) fn new(config: ServeConfig) -> AppState {
        AppState {
            workers: Arc::new(Semaphore::new(config.agent_workers.max(1))),
            config,
        }
    }
}
