package couchbench.memcache.internal;

import io.gatling.javaapi.core.CheckBuilder;

/** The memcache checks' types: STATUS replaces the default expectation, REPLY adds to it. */
public enum MemcacheCheckType implements CheckBuilder.CheckType {
  STATUS,
  REPLY
}
