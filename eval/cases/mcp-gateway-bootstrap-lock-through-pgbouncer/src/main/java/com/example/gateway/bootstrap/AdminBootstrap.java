package com.example.gateway.bootstrap;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.springframework.stereotype.Component;

@Component
public class AdminBootstrap {

    public void ensureAdminUser(Connection conn) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(
                "INSERT INTO email_users(email, is_admin) VALUES (?, true) ON CONFLICT (email) DO NOTHING")) {
            ps.setString(1, "admin@example.com");
            ps.executeUpdate();
        }
    }

    public void ensureDefaultRoles(Connection conn) throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement(
                "INSERT INTO roles(name) VALUES ('platform_admin'), ('developer'), ('viewer') ON CONFLICT (name) DO NOTHING")) {
            ps.executeUpdate();
        }
    }
}
