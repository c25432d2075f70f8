//! Values made at their first use and kept for the life of the program, one for each key of a
//! small set the program's own code names (its tool types, its patterns).

use std::collections::BTreeMap;
use std::sync::{PoisonError, RwLock};

/// The value `map` keeps for `key`, made by `make` the first time it is asked for and kept from
/// then on (leaked: the keys are the program's own, so the map stays small). Found under the
/// read lock; made under the write lock, once, whichever thread asks first.
pub(crate) fn kept<K: Ord, V>(
    map: &RwLock<BTreeMap<K, &'static V>>,
    key: K,
    make: impl FnOnce() -> V,
) -> &'static V {
    let found = map
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .get(&key)
        .copied();
    if let Some(value) = found {
        return value;
    }
    let mut map = map.write().unwrap_or_else(PoisonError::into_inner);
    map.entry(key)
        .or_insert_with(|| Box::leak(Box::new(make())))
}
