//! JSON text read straight into Python objects (dicts, lists, strings, numbers, `True`,
//! `None`), as `json.loads` would give them, without a Python call: serde_json reads the
//! text and each value it meets becomes its Python object at once, with no tree in
//! between. A hosted agent's position crosses this way (Python's `json.loads` was most
//! of the Python side's time a move).

use pyo3::BoundObject;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// The Python object of one JSON text. Objects keep their keys in the text's order, and
/// a repeated key keeps its last value at its first place, as `json.loads` does. Where
/// they differ (numbers no writer of a position uses): an integer beyond 64 bits is read
/// as a float, `-0` as `-0.0`, and a number beyond a float's range is an error.
pub fn from_json(py: Python<'_>, text: &[u8]) -> PyResult<Py<PyAny>> {
    let mut reader = serde_json::Deserializer::from_slice(text);
    let value = Object { py }
        .deserialize(&mut reader)
        .and_then(|value| reader.end().map(|()| value));
    value.map_err(|e| pyo3::exceptions::PyValueError::new_err(format!("position: {e}")))
}

/// Reads one value into its Python object.
#[derive(Clone, Copy)]
struct Object<'py> {
    py: Python<'py>,
}

/// A Python error while building an object, carried through serde as its message.
fn failed<E: serde::de::Error>(error: &PyErr) -> E {
    E::custom(error)
}

/// One number, string or truth value as its Python object.
fn scalar<'py, T, E>(py: Python<'py>, value: T) -> Result<Py<PyAny>, E>
where
    T: IntoPyObject<'py>,
    E: serde::de::Error,
{
    match value.into_pyobject(py) {
        Ok(object) => Ok(object.into_bound().into_any().unbind()),
        Err(error) => Err(failed(&error.into())),
    }
}

impl<'de, 'py> DeserializeSeed<'de> for Object<'py> {
    type Value = Py<PyAny>;

    fn deserialize<D: Deserializer<'de>>(self, reader: D) -> Result<Self::Value, D::Error> {
        reader.deserialize_any(self)
    }
}

impl<'de, 'py> Visitor<'de> for Object<'py> {
    type Value = Py<PyAny>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Self::Value, E> {
        scalar(self.py, v)
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Self::Value, E> {
        scalar(self.py, v)
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Self::Value, E> {
        scalar(self.py, v)
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Self::Value, E> {
        scalar(self.py, v)
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
        scalar(self.py, v)
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
        Ok(self.py.None())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Self::Value, A::Error> {
        let list = PyList::empty(self.py);
        while let Some(item) = items.next_element_seed(self)? {
            list.append(item).map_err(|e| failed(&e))?;
        }
        Ok(list.into_any().unbind())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Self::Value, A::Error> {
        let dict = PyDict::new(self.py);
        // A key is a string: read by the same seed, it is a Python string at once.
        while let Some(key) = entries.next_key_seed(self)? {
            let value = entries.next_value_seed(self)?;
            dict.set_item(key, value).map_err(|e| failed(&e))?;
        }
        Ok(dict.into_any().unbind())
    }
}
