//! What every stored type's conversion uses: a list converted item by item, and a unit-only
//! enum of another layer declared with its stored twin.

/// A unit-only enum of another layer and its stored twin, variant for variant.
macro_rules! unit_enum {
    ($(#[$attr:meta])* $name:ident = $layer:ident::$ty:ident { $($variant:ident),* $(,)? }) => {
        #[doc = concat!("[`", stringify!($layer::$ty), "`] as stored.")]
        #[derive(Debug, serde::Serialize, serde::Deserialize)]
        $(#[$attr])*
        pub enum $name {
            $($variant),*
        }

        impl From<&$layer::$ty> for $name {
            fn from(value: &$layer::$ty) -> $name {
                match value {
                    $($layer::$ty::$variant => $name::$variant),*
                }
            }
        }

        impl From<$name> for $layer::$ty {
            fn from(value: $name) -> $layer::$ty {
                match value {
                    $($name::$variant => $layer::$ty::$variant),*
                }
            }
        }
    };
}

/// Each of `items` as stored.
pub fn all<'a, T: 'a, S: From<&'a T>>(items: &'a [T]) -> Vec<S> {
    items.iter().map(S::from).collect()
}

/// Each of `items` stored, as the layer it was stored from has it.
pub fn back<S, T: From<S>>(items: Vec<S>) -> Vec<T> {
    items.into_iter().map(T::from).collect()
}
