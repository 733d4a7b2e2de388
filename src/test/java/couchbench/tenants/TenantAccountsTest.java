package couchbench.tenants;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.couchdb.CouchDbClient;
import couchbench.startup.Settings;
import couchbench.targets.CouchTarget;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class TenantAccountsTest {

  private final TenantAccounts accounts = new TenantAccounts(TenantsPlan.from(Settings.of(Map.of("tenants", "3",
      "database", "acme"), Map.of())), new CouchDbClient(new CouchTarget("http://127.0.0.1:1", Optional.empty(),
      false)));

  @Test
  void shouldNameEachUserAndItsDatabaseByThePrefixAndGiveNoneTheClosedOne() {
    List<Tenant> tenants = accounts.tenants();

    assertEquals(List.of("acme_00000", "acme_00001", "acme_00002"), tenants.stream().map(Tenant::name).toList());
    assertEquals(List.of("acme_00000", "acme_00001", "acme_00002"), tenants.stream().map(Tenant::database).toList());
    assertEquals("org.couchdb.user:acme_00001", tenants.get(1).userDocId());
    assertEquals("acme_closed", accounts.closedDatabase());
    assertEquals("doc00042", TenantAccounts.seededId(42));
  }

  @Test
  void shouldDrawADifferentPasswordForEachUserAndNeverShowIt() {
    List<Tenant> tenants = accounts.tenants();

    assertEquals(3, tenants.stream().map(tenant -> tenant.credentials().password()).collect(Collectors.toSet())
        .size());
    for (Tenant tenant : tenants) {
      assertTrue(tenant.credentials().password().length() >= 24, "18 random bytes in base64");
      assertFalse(tenant.toString().contains(tenant.credentials().password()), tenant.toString());
    }
  }
}
