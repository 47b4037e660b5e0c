package dev.ferry.spring.boot.jaxws;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Lets every caller in, for the tests whose application is not about security: Spring Security
 * is on the tests' class path, and would otherwise ask every call for a password.
 */
@Configuration(proxyBeanMethods = false)
class OpenSecurity {
  @Bean
  SecurityFilterChain open(HttpSecurity http) throws Exception {
    return http.csrf(c -> c.disable()).authorizeHttpRequests(a -> a.anyRequest().permitAll())
        .build();
  }
}
